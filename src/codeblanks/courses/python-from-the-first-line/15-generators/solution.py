def chunks(items, size):
    """Yield the items in lists of `size`, in order; the last list may be shorter."""
    chunk = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if len(chunk) > 0:
        yield chunk


print(list(chunks([1, 2, 3, 4, 5], 2)))
