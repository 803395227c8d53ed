def parse_age(text):
    """The age in ``text``; a ValueError that says why when it is not one."""
    text = text.strip()
    if not text.removeprefix("-").isdigit():
        raise ValueError("age must be a whole number")
    age = int(text)
    if age < 0:
        raise ValueError("age cannot be negative")
    return age
