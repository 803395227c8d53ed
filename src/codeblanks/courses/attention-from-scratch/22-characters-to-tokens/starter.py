import numpy as np

text = "the cat sat on the mat"  # the text the vocabulary is built from
prompt = "a cat"  # another text, written with the same characters

# Your code here: replace each ____.
chars = ____  # the vocabulary: every distinct character, in sorted order
stoi = ____  # character -> id: its place in chars
ids = ____  # one id per character of the text, as an integer array
prompt_ids = ____  # the prompt, with the same vocabulary
decoded = ____  # each id back to its character, as one string

print(len(chars), repr("".join(chars)))
print(ids)
print(prompt_ids)
print(decoded == text)
