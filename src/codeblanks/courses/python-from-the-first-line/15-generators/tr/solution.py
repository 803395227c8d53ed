def chunks(items, size):
    """items'in öğelerini sırayla, size'lık listeler hâlinde verir; son liste daha kısa olabilir."""
    parca = []
    for oge in items:
        parca.append(oge)
        if len(parca) == size:
            yield parca
            parca = []
    if len(parca) > 0:
        yield parca


print(list(chunks([1, 2, 3, 4, 5], 2)))
