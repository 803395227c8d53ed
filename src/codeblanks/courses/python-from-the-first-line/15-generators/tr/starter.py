def chunks(items, size):
    """items'in öğelerini sırayla, size'lık listeler hâlinde verir; son liste daha kısa olabilir."""
    parca = []
    for oge in items:
        ____
    ____


print(list(chunks([1, 2, 3, 4, 5], 2)))
