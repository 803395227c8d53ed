def chunks(items, size):
    """Yield the items in lists of `size`, in order; the last list may be shorter."""
    result = []
    chunk = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            result.append(chunk)
            chunk = []
    if chunk:
        result.append(chunk)
    return result
