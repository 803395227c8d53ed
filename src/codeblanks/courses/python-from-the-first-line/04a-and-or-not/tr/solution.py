def can_ride(height, age, with_adult):
    """Bu boydaki (cm) ve bu yaştaki biri oyuncağa binebiliyorsa True.

    with_adult, yanında bir yetişkin varsa True, kişi yalnızsa False'tur.
    """
    return height >= 120 and (age >= 10 or with_adult)


print(can_ride(170, 30, False))
print(can_ride(130, 8, False))
