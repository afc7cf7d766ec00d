"""`Socket`: a transport that records what a protocol of the server does with it, for tests that run
one of the server's uvicorn protocols and uvicorn's own on the same input and compare the two."""

from __future__ import annotations


class Socket:
    """A transport that records each write and the close, in order; with `flow`, each pause and
    resume of reading too."""

    def __init__(self, flow: bool = False) -> None:
        self.log: list[bytes | str] = []
        self._flow = flow

    def get_extra_info(self, name: str, default: object = None) -> object:
        return {"sockname": ("127.0.0.1", 8000), "peername": ("127.0.0.1", 50000)}.get(name, default)

    def write(self, data: bytes) -> None:
        self.log.append(bytes(data))

    def close(self) -> None:
        self.log.append("close")

    def is_closing(self) -> bool:
        return "close" in self.log

    def pause_reading(self) -> None:
        if self._flow:
            self.log.append("pause")

    def resume_reading(self) -> None:
        if self._flow:
            self.log.append("resume")

    def writes(self) -> list[bytes]:
        return [entry for entry in self.log if isinstance(entry, bytes)]
