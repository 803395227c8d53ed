from lessontest import test


@test("a new playlist is empty")
def new_playlist():
    return Playlist("Quiet").count()


@test("it keeps its name")
def its_name():
    return Playlist("Morning run").name


@test("three songs")
def three_songs():
    mix = Playlist("Mix")
    mix.add("Paper Boats", 200)
    mix.add("Salt", 95)
    mix.add("Neon Rain", 241)
    return [mix.count(), mix.total_seconds()]


@test("two playlists keep their own songs", hidden=True)
def two_playlists():
    first = Playlist("First")
    second = Playlist("Second")
    first.add("Low Tide", 130)
    second.add("High Noon", 170)
    second.add("Dusk", 60)
    return [first.count(), first.total_seconds(), second.count(), second.total_seconds()]
