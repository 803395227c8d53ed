first = "Ada"
second = "Grace"
print(first, second)

# İki adın yerini değiştir: `first` ikinci adı, `second` birinci adı alsın.
sakla = first
first = second
second = sakla
print(first, second)
