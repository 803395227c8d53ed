import numpy as np

text = "the cat sat on the mat"  # the text the vocabulary is built from
prompt = "a cat"  # another text, written with the same characters

chars = list(dict.fromkeys(text))  # in the order of first use
stoi = {ch: i for i, ch in enumerate(chars)}  # character -> id: its place in chars
ids = np.array([stoi[ch] for ch in text])  # one id per character of the text
prompt_ids = np.array([stoi[ch] for ch in prompt])  # the prompt, with the same vocabulary
decoded = "".join(chars[i] for i in ids)  # each id back to its character

print(len(chars), repr("".join(chars)))
print(ids)
print(prompt_ids)
print(decoded == text)
