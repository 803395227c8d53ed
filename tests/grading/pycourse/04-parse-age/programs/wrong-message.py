def parse_age(text):
    text = text.strip()
    if not text.removeprefix("-").isdigit():
        raise ValueError(f"not a number: {text!r}")
    age = int(text)
    if age < 0:
        raise ValueError("age cannot be negative")
    return age
