"""The proof of the rating (scoring/rating_sim.py, docs/rating.md): on a small fixed set of synthetic
tournaments the rating must stay ahead of the Rundenschnitt. Fast (four tournaments of four evenings,
about 2 s); the full figures are `python -m scoring.rating_sim` (`make bench`)."""

from scoring import rating_sim

SEEDS = 4
EVENINGS = 4  # rank correlations after 2, 3 and 4 evenings; the log-loss on the 4th, held out


def test_the_rating_beats_the_rundenschnitt_on_fixed_tournaments():
    results = rating_sim.run(SEEDS, evenings=EVENINGS)
    # a higher rank correlation with the true strength in every tournament, after every evening from 2
    assert rating_sim.ahead(results) == [SEEDS] * (EVENINGS - 1)
    # and a lower log-loss on the held-out evening, both calibrated the same way on the evenings before
    assert rating_sim.meets_the_bar(results)
    assert rating_sim.mean([f.rating_loss for f in results]) < rating_sim.mean([f.average_loss for f in results])


def test_the_simulation_is_reproducible():
    first = rating_sim.tournament(7, players=16, evenings=3, games=4)
    assert first == rating_sim.tournament(7, players=16, evenings=3, games=4)
    assert len(first.rating_rho) == len(first.average_rho) == 2
