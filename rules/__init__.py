"""The pure rules engine: geometry, models, rulesets and the adjudication state machine.

No discord, no I/O, no asyncio here (a test walks the imports to keep it so).
"""
