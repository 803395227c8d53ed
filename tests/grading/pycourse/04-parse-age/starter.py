def parse_age(text):
    return ____
