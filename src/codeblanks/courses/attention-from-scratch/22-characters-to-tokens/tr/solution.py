import numpy as np

text = "the cat sat on the mat"  # dağarcığın kurulduğu metin
prompt = "a cat"  # aynı karakterlerle yazılmış başka bir metin

chars = sorted(set(text))  # dağarcık: her farklı karakter, sıralı olarak
stoi = {ch: i for i, ch in enumerate(chars)}  # karakter -> kimlik: chars'taki yeri
ids = np.array([stoi[ch] for ch in text])  # metnin her karakteri için bir kimlik
prompt_ids = np.array([stoi[ch] for ch in prompt])  # aynı dağarcıkla kodlanmış istem
decoded = "".join(chars[i] for i in ids)  # her kimlik yeniden karakterine

print(len(chars), repr("".join(chars)))
print(ids)
print(prompt_ids)
print(decoded == text)
