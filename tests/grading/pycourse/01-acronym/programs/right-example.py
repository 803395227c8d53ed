def abbreviate(words):
    """The acronym of a phrase: the first letter of each word, in capitals."""
    cleaned = words.replace("-", " ").replace("_", " ")
    return "".join(word[0].upper() for word in cleaned.split())
