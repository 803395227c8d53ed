players = [("Ada", 12), ("Ben", 7), ("Cem", 12), ("Dan", 9)]


def by_points_then_name(player):
    """Most points first; players with equal points in the order of their names."""
    name, points = player
    return (-points, name)


ranked = sorted(players, key=by_points_then_name)
for place, (name, points) in enumerate(ranked, start=1):
    print(f"{place}. {name} {points}")
