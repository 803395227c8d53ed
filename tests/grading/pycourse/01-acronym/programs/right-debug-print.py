def abbreviate(words):
    cleaned = words.replace("-", " ").replace("_", " ")
    print("words:", cleaned.split())
    return "".join(word[0].upper() for word in cleaned.split())


print(abbreviate("Portable Network Graphics"))
