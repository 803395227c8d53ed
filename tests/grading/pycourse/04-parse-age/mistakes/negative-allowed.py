def parse_age(text):
    text = text.strip()
    if not text.removeprefix("-").isdigit():
        raise ValueError("age must be a whole number")
    return int(text)
