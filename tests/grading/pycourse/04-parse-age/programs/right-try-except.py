def parse_age(text):
    try:
        age = int(text)
    except ValueError:
        raise ValueError("age must be a whole number") from None
    if age < 0:
        raise ValueError("age cannot be negative")
    return age
