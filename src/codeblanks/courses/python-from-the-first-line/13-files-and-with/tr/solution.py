def save_list(path, ogeler):
    """ogeler'in her birini path'teki dosyaya kendi satırına yazar; dosyanın eskisinin yerini alır."""
    with open(path, "w") as f:
        for oge in ogeler:
            f.write(oge + "\n")


def load_list(path):
    """path'teki dosyanın satırları, satır sonları olmadan."""
    ogeler = []
    with open(path) as f:
        for satir in f:
            ogeler.append(satir.rstrip("\n"))
    return ogeler


save_list("shopping.txt", ["milk", "eggs", "tea"])
print(load_list("shopping.txt"))
