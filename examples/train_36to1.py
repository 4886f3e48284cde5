"""Train a masked softmax policy on 36 to 1 with REINFORCE, in numpy only (no torch).

The environment is ``rulebox.env.gymnasium_env("36to1")``: the observation is the 470-value
vector of docs/RESEARCH.md, the action one of 1,998 ids, ``info["action_mask"]`` the legal ones.
The policy is linear: logits ``W @ obs + b``, illegal actions masked out before the softmax, so
it never plays an illegal move. REINFORCE with a running-mean baseline: after each episode every
step's log-probability gradient is scaled by (return - baseline). The reward is rulebox's return
(+1 for a win; a loss with n cubes left scores -(n - 1) / 35).

    python examples/train_36to1.py [--episodes 2000] [--eval 200] [--lr 0.5] [--seed 0]

It prints the mean return every 10% of training, then the trained policy (greedy) against a
uniform random legal policy on the same held-out deals. A few minutes on one CPU core.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from rulebox.env import gymnasium_env


class MaskedLinearPolicy:
    """``softmax(W @ obs + b)`` over the legal actions."""

    def __init__(self, n_obs: int, n_actions: int, rng: np.random.Generator) -> None:
        self.w = rng.normal(0.0, 0.01, (n_actions, n_obs)).astype(np.float32)
        self.b = np.zeros(n_actions, dtype=np.float32)

    def probs(self, obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The legal action ids and their probabilities."""
        legal = np.flatnonzero(mask)
        logits = self.w[legal] @ obs + self.b[legal]
        logits -= logits.max()
        p = np.exp(logits)
        return legal, p / p.sum()

    def update(self, steps: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]],
               advantage: float, lr: float) -> None:
        """One REINFORCE step: raise the log-probability of the actions taken by
        ``lr * advantage`` times its gradient (only the legal rows change)."""
        for obs, legal, p, chosen in steps:
            grad = -p
            grad[chosen] += 1.0
            scale = lr * advantage
            self.w[legal] += scale * np.outer(grad, obs)
            self.b[legal] += scale * grad


def run_episode(env: object, policy: MaskedLinearPolicy | None, seed: int,
                rng: np.random.Generator, greedy: bool = False) -> tuple[float, list]:
    """Play one deal; ``policy=None`` plays uniformly among the legal actions."""
    obs, info = env.reset(seed=seed)  # type: ignore[attr-defined]
    steps = []
    total = 0.0
    done = False
    while not done:
        mask = info["action_mask"]
        if policy is None:
            action = int(rng.choice(np.flatnonzero(mask)))
        else:
            legal, p = policy.probs(obs, mask)
            chosen = int(np.argmax(p)) if greedy else int(rng.choice(len(legal), p=p))
            steps.append((obs, legal, p, chosen))
            action = int(legal[chosen])
        obs, reward, term, trunc, info = env.step(action)  # type: ignore[attr-defined]
        total += float(reward)
        done = term or trunc
    return total, steps


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=2000)
    parser.add_argument("--eval", type=int, default=200, help="held-out deals to compare on")
    parser.add_argument("--lr", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    env = gymnasium_env("36to1", illegal="raise")
    rng = np.random.default_rng(args.seed)
    policy = MaskedLinearPolicy(env.observation_space.shape[0], env.action_space.n, rng)
    baseline = None
    start = time.perf_counter()
    recent: list[float] = []
    report = max(1, args.episodes // 10)
    for episode in range(args.episodes):
        total, steps = run_episode(env, policy, args.seed * 1_000_000 + episode, rng)
        baseline = total if baseline is None else 0.95 * baseline + 0.05 * total
        policy.update(steps, total - baseline, args.lr)
        recent.append(total)
        if (episode + 1) % report == 0:
            print(f"episode {episode + 1}: mean return {np.mean(recent):+.3f} "
                  f"({time.perf_counter() - start:.0f} s)")
            recent = []
    held_out = [10**9 + i for i in range(args.eval)]  # deals never trained on
    trained = [run_episode(env, policy, s, rng, greedy=True)[0] for s in held_out]
    rand = [run_episode(env, None, s, rng)[0] for s in held_out]
    result = {"trained": float(np.mean(trained)), "random": float(np.mean(rand)),
              "trained_wins": float(sum(r == 1.0 for r in trained)),
              "random_wins": float(sum(r == 1.0 for r in rand))}
    print(f"held-out deals: {args.eval}; mean return trained {result['trained']:+.3f} "
          f"(won {result['trained_wins']:.0f}), random {result['random']:+.3f} "
          f"(won {result['random_wins']:.0f})")
    return result


if __name__ == "__main__":
    main()
