def abbreviate(words):
    cleaned = words.replace("-", " ").replace("_", " ")
    return "".join(word[0] for word in cleaned.split())
