def trim(readings, n):
    """İlk n ve son n okuma atılmış, okumalardan oluşan yeni bir liste."""
    return readings[n:len(readings) - n]


print(trim([5, 9, 10, 11, 10, 3, 1], 2))
