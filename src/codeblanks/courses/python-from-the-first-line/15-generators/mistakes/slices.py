def chunks(items, size):
    """Yield the items in lists of `size`, in order; the last list may be shorter."""
    for start in range(0, len(items), size):
        yield items[start : start + size]
