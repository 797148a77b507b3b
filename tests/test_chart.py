"""The chart widget's drawing, by exact text."""

from garito.widgets.chart import plot_lines


def test_two_series_with_markers_axis_and_legend():
    text = plot_lines(((100, 105, 110), (100, 95, 90)), ("Ana", "Bea"), 8, 3).plain
    assert text.splitlines() == [
        "110┤ ●● ",
        "   ┤■   ",  # both start at 100; the later series is drawn over the earlier
        " 90┤ ■■ ",
        "● Ana  ",  # eight cells wide: the legend wraps
        "■ Bea  ",
    ]


def test_a_long_series_is_squeezed_to_fit():
    text = plot_lines((tuple(range(50)),), ("A",), 7, 2, ascii_only=True).plain.splitlines()
    assert text[:2] == ["49|  oo", " 0|oo  "]  # 50 points in 4 columns, the last at the right


def test_flat_and_empty():
    assert plot_lines(((5, 5),), ("A",), 6, 3, ascii_only=True).plain.splitlines() == [
        "6|    ",
        " |oo  ",
        "4|    ",
        "o A  ",
    ]
    assert plot_lines((), (), 10, 3).plain == ""


def test_the_legend_wraps_and_its_height_is_known():
    from garito.widgets.chart import legend_height

    labels = ("Player 1", "Ramón", "Lucía", "Tomás", "Inés", "Xoán")
    text = plot_lines(tuple((100, 90 + i) for i in range(6)), labels, 32, 3).plain.splitlines()
    assert text[3:] == ["● Player 1  ■ Ramón  ▲ Lucía  ", "◆ Tomás  ✚ Inés  ✖ Xoán  "]
    assert legend_height(labels, 32) == 2 and legend_height(labels, 80) == 1
