"""Learning: expert iteration (self-play with network-guided search) on the CPU.

`spielwerk train GAME` runs `spielwerk.learn.train.Run`; the model files it writes are read by
`spielwerk.agents.network`, which plays them with NumPy alone. This package needs the `learn`
extra (JAX and optax) and sits beside `sim`: it uses agents and games, nothing below imports it.
"""
