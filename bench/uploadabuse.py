#!/usr/bin/python3
"""Measures "mark1 serve" under upload abuse, from outside, as a hostile page would not
but a local program can: it reads the panel's token from the page, then

  1. 8, then 32, clients upload at once the PNG that PIC=W,H,DEPTH,COLOURTYPE describes
     (default 6000,4000,8,2: a 24-megapixel RGB picture, all black, so the file is small);
  2. 200 clients open an upload and trickle one byte a second for 40 s;

and prints the answers and the server's peak resident memory (VmHWM) after each part.

    go build -o /tmp/mark1 ./cmd/mark1
    MARK1=/tmp/mark1 PIC=6000,4000,8,2 python3 bench/uploadabuse.py
"""
import os, subprocess, time, re, zlib, struct, threading, socket, urllib.request, sys
def png(w, h, depth=16, ctype=6):
    ch = {0:1, 2:3, 4:2, 6:4}[ctype]
    row = b'\x00' + bytes(w*ch*depth//8)
    raw = zlib.compress(row*h, 9)
    def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t+d) & 0xffffffff)
    return b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, depth, ctype, 0, 0, 0)) + chunk(b'IDAT', raw) + chunk(b'IEND', b'')
W,H,D,C = [int(v) for v in os.environ.get("PIC","6000,4000,8,2").split(",")]
big = png(W, H, D, C)
print("PNG bytes", len(big), file=sys.stderr)
srv = subprocess.Popen([os.environ.get("MARK1", "mark1"), "serve", "--addr", "127.0.0.1:18081"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
time.sleep(1.5)
base = "http://127.0.0.1:18081"
page = urllib.request.urlopen(base + "/").read().decode()
tok = re.search(r'name="mark1-token" content="([0-9a-f]+)"', page).group(1)
def hwm():
    for l in open(f"/proc/{srv.pid}/status"):
        if l.startswith("VmHWM"): return int(l.split()[1]) // 1024
def upload(i, res):
    req = urllib.request.Request(base + f"/api/upload?name=big{i}.png", data=big, method="POST",
        headers={"X-Mark1-Token": tok, "Origin": base, "Content-Type": "application/octet-stream"})
    try:
        r = urllib.request.urlopen(req, timeout=120); res[i] = r.status
    except urllib.error.HTTPError as e:
        res[i] = e.code
        if i == 0: print("answer:", e.read()[:300], file=sys.stderr)
    except Exception as e: res[i] = str(e)
print("idle RSS peak MB", hwm())
for n in (8, 32):
    res = {}
    t0 = time.time()
    ts = [threading.Thread(target=upload, args=(i, res)) for i in range(n)]
    [t.start() for t in ts]; [t.join() for t in ts]
    codes = {}
    for v in res.values(): codes[v] = codes.get(v, 0) + 1
    print(f"{n} concurrent uploads of the PNG: {time.time()-t0:.1f} s, answers {codes}, server peak RSS {hwm()} MB")
# trickle: 200 connections each sending one byte a second
socks = []
for i in range(200):
    s = socket.create_connection(("127.0.0.1", 18081))
    s.sendall(f"POST /api/upload?name=t{i}.png HTTP/1.1\r\nHost: 127.0.0.1:18081\r\nOrigin: {base}\r\nX-Mark1-Token: {tok}\r\nContent-Length: 1000000\r\n\r\n".encode())
    socks.append(s)
t0 = time.time(); open_ = len(socks)
while time.time() - t0 < 40:
    alive = 0
    for s in socks:
        try: s.sendall(b'x'); alive += 1
        except Exception: pass
    time.sleep(1)
    el = time.time() - t0
    if int(el) % 10 == 0: print(f"trickle: {alive} of 200 connections still accepted after {el:.0f} s", flush=True)
print("after trickle, server peak RSS", hwm(), "MB")
ok = urllib.request.urlopen(base + "/api/state").status
print("state answered", ok)
srv.terminate(); srv.wait()
