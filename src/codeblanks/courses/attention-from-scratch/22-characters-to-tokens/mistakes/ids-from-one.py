import numpy as np

text = "the cat sat on the mat"  # the text the vocabulary is built from
prompt = "a cat"  # another text, written with the same characters

chars = sorted(set(text))  # the vocabulary: every distinct character, in sorted order
stoi = {ch: i + 1 for i, ch in enumerate(chars)}
ids = np.array([stoi[ch] for ch in text])  # one id per character of the text
prompt_ids = np.array([stoi[ch] for ch in prompt])  # the prompt, with the same vocabulary
decoded = "".join(chars[i - 1] for i in ids)

print(len(chars), repr("".join(chars)))
print(ids)
print(prompt_ids)
print(decoded == text)
