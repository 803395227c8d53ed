import numpy as np

text = "the cat sat on the mat"  # dağarcığın kurulduğu metin
prompt = "a cat"  # aynı karakterlerle yazılmış başka bir metin

# buraya yaz: her ____ yerine kendi kodunu koy.
chars = ____  # dağarcık: her farklı karakter, sıralı olarak
stoi = ____  # karakter -> kimlik: chars'taki yeri
ids = ____  # metnin her karakteri için bir kimlik, tam sayı dizisi olarak
prompt_ids = ____  # aynı dağarcıkla kodlanmış istem
decoded = ____  # her kimlik yeniden karakterine, tek bir metin olarak

print(len(chars), repr("".join(chars)))
print(ids)
print(prompt_ids)
print(decoded == text)
