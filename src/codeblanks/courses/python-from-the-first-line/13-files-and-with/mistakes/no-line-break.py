def save_list(path, items):
    """Write each item on a line of its own in the file at path, replacing what it held."""
    with open(path, "w") as f:
        for item in items:
            f.write(item)


def load_list(path):
    """The lines of the file at path, without their line breaks."""
    items = []
    with open(path) as f:
        for line in f:
            items.append(line.rstrip("\n"))
    return items

