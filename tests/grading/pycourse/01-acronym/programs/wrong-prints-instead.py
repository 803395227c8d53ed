def abbreviate(words):
    cleaned = words.replace("-", " ").replace("_", " ")
    print("".join(word[0].upper() for word in cleaned.split()))
