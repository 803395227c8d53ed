def parse_age(text):
    text = text.strip()
    if not text.removeprefix("-").isdigit():
        raise ValueError("age must be a whole number")
    if int(text) < 0:
        raise ValueError("age cannot be negative")
    return float(text)
