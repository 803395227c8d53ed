def can_ride(height, age, with_adult):
    """True when someone this tall (in cm) and this old may go on the ride.

    with_adult is True when an adult comes along, False when the rider is alone.
    """
    return height >= 120 and (age >= 10 or with_adult)


print(can_ride(170, 30, False))
print(can_ride(130, 8, False))
