from lessontest import test


@test("no match", unordered=True)
def no_match():
    return find_anagrams("diaper", ["hello", "world", "zombies", "pants"])


@test("two matches", unordered=True)
def two():
    return find_anagrams("solemn", ["lemons", "cherry", "melons"])


@test("whatever the case", unordered=True)
def case():
    return find_anagrams("Orchestra", ["cashregister", "Carthorse", "radishes"])


@test("not the word itself", hidden=True, unordered=True)
def itself():
    return find_anagrams("BANANA", ["Banana", "nabana"])


@test("many candidates", hidden=True, unordered=True)
def many():
    return find_anagrams("allergy", ["gallery", "ballerina", "regally", "clergy", "largely"])
