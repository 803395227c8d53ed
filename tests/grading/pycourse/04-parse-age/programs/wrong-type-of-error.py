def parse_age(text):
    text = text.strip()
    if not text.removeprefix("-").isdigit():
        raise TypeError("age must be a whole number")
    age = int(text)
    if age < 0:
        raise ValueError("age cannot be negative")
    return age
