#!/usr/bin/env python3
"""Resident memory of a UAI engine over moves of `go infinite` (docs/speed.md, the tree's memory).

Usage: tools/uai_memory.py BINARY HASH_MIB SECONDS [MOVES]

Sets Hash, then for each move searches the game so far with `go infinite` for SECONDS, stops it,
plays its bestmove and a 50 ms reply of the same engine, and prints the nodes searched and the
process's resident memory (VmRSS) and peak (VmHWM) from /proc. Run from the repository root (the
engine finds its shipped net there).
"""
import re
import subprocess
import sys
import time


def main():
    binary, hash_mib, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    moves_to_play = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    engine = subprocess.Popen([binary, "uai"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    def read_until(prefix):
        lines = []
        while True:
            line = engine.stdout.readline()
            if not line:
                sys.exit(f"the engine quit before '{prefix}'")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def memory():
        fields = dict(line.split(":", 1) for line in open(f"/proc/{engine.pid}/status"))
        return fields["VmRSS"].strip(), fields["VmHWM"].strip()

    send("uai")
    read_until("uaiok")
    send(f"setoption name Hash value {hash_mib}")
    send("isready")
    read_until("readyok")
    moves = []
    for move in range(moves_to_play):
        send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        send("go infinite")
        time.sleep(seconds)
        send("stop")
        out = read_until("bestmove")
        info = [line for line in out if " nodes " in line][-1]
        nodes = re.search(r" nodes (\d+)", info).group(1)
        rss, hwm = memory()
        print(f"move {move + 1}: {nodes} nodes, resident {rss}, peak {hwm}", flush=True)
        moves.append(out[-1].split()[1])
        send("position startpos moves " + " ".join(moves))
        send("go movetime 50")
        moves.append(read_until("bestmove")[-1].split()[1])
    send("quit")
    engine.wait()


if __name__ == "__main__":
    main()
