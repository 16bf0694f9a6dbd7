"""The one error a malformed log raises: a single line naming the file, where, and what."""

from __future__ import annotations


class LogError(ValueError):
    def __init__(self, source: str, where: str, problem: str):
        self.source, self.where, self.problem = source, where, problem
        super().__init__(f"{source}: {where}: {problem}" if where else f"{source}: {problem}")
