"""Values every room shares, with no behaviour of their own: hands and actions, amounts, cards,
variants, the immutable-value base, the JSON object shape, and the status and severity words.

core imports nothing else of handaudit (see docs/architecture.md).
"""
