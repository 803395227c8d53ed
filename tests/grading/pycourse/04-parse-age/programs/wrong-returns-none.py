def parse_age(text):
    text = text.strip()
    if not text.removeprefix("-").isdigit():
        return None
    age = int(text)
    if age < 0:
        raise ValueError("age cannot be negative")
    return age
