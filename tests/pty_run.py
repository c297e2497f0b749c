# Test helper: runs a command on a pseudo-terminal and answers its prompts, as a person at a terminal would.
# usage: pty_run.py [PROMPT=REPLY]... -- COMMAND...  (each reply is typed once PROMPT has appeared, in order)
# Prints what the terminal showed and exits with the command's status (124 if it hangs for 30 s).
import os
import pty
import select
import sys
import time

sep = sys.argv.index("--")
script = [a.split("=", 1) for a in sys.argv[1:sep]]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[sep + 1], sys.argv[sep + 1:])
shown = b""
seen = 0   # the part of the output already matched
deadline = time.time() + 30
while time.time() < deadline:
    if script and script[0][0].encode() in shown[seen:]:
        seen = shown.index(script[0][0].encode(), seen) + len(script[0][0])
        os.write(fd, script.pop(0)[1].encode() + b"\n")
        continue
    ready, _, _ = select.select([fd], [], [], 0.5)
    if not ready:
        continue
    try:
        data = os.read(fd, 4096)
    except OSError:   # EIO: the command closed the terminal (it exited)
        break
    if not data:
        break
    shown += data
else:
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    sys.stdout.write(shown.decode("utf-8", "replace") + "\n[pty_run: no exit after 30 s]\n")
    sys.exit(124)
_, status = os.waitpid(pid, 0)
sys.stdout.write(shown.decode("utf-8", "replace"))
sys.exit(os.waitstatus_to_exitcode(status))
