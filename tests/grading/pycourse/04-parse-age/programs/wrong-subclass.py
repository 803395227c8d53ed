class AgeError(ValueError):
    """Our own kind of error."""


def parse_age(text):
    text = text.strip()
    if not text.removeprefix("-").isdigit():
        raise AgeError("age must be a whole number")
    age = int(text)
    if age < 0:
        raise AgeError("age cannot be negative")
    return age
