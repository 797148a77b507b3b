"""The chart widget's drawing, by exact text."""

from garito.widgets.chart import plot_lines


def test_two_series_with_markers_axis_and_legend():
    text = plot_lines(((100, 105, 110), (100, 95, 90)), ("Ana", "Bea"), 8, 3).plain
    assert text.splitlines() == [
        "110┤ ●● ",
        "   ┤2   ",  # both start at 100: the cell says two series are there
        " 90┤ ■■ ",
        "● Ana  ",  # eight cells wide: the legend wraps
        "■ Bea  ",
        "2 together  ",
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
    assert text[3:] == ["● Player 1  ■ Ramón  ▲ Lucía  ", "◆ Tomás  ✚ Inés  ✖ Xoán  ", "3/6 together  "]
    assert legend_height(labels, 32) == 2 and legend_height(labels, 80) == 1


def test_no_series_hides_behind_another():
    # Barras: three players level on 100 chips, then two level on 101.
    text = plot_lines(((100, 101, 102), (100, 101, 90), (100, 95, 90)), ("Ana", "Bea", "Cai"), 40, 3)
    assert text.plain.splitlines() == [
        "102┤32●                                 ",  # all three, then Ana and Bea
        "   ┤ ▲                                  ",
        " 90┤  2                                 ",  # Bea and Cai end level
        "● Ana  ■ Bea  ▲ Cai  2/3 together  ",
    ]
    alone = plot_lines(((100, 105), (90, 95)), ("Ana", "Bea"), 20, 3).plain
    assert "together" not in alone


def test_the_chart_widget_makes_room_for_the_together_item():
    from garito.widgets.chart import Chart

    from .helpers import sync

    @sync
    async def run():
        from textual.app import App

        class One(App):
            def compose(self):
                chart = Chart()
                chart.styles.height = 6
                chart.styles.width = 20
                yield chart

        app = One()
        async with app.run_test(size=(30, 10)) as pilot:
            chart = app.query_one(Chart)
            chart.series = ((100, 100, 101), (100, 100, 99))
            chart.labels = ("Ana", "Bea")
            await pilot.pause()
            lines = chart.render().plain.split("\n")
            assert len(lines) <= 6 and lines[-1].startswith("2 together")

    run()
