first = "Ada"
second = "Grace"
print(first, second)

# İki adın yerini değiştir: `first` ikinci adı, `second` birinci adı alsın.
sakla = first
first = ____
second = ____
print(first, second)
