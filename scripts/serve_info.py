"""What `make serve` prints before it starts: the addresses players type on the hall's network, and a
QR code of the first one for their phones' cameras (segno, drawn with text characters).

    python scripts/serve_info.py PORT            the addresses and the QR code
    python scripts/serve_info.py PORT --hosts    only the host names to allow (DJANGO_ALLOWED_HOSTS)
    python scripts/serve_info.py PORT --url      only the first address (DJANGO_SITE_URL)
    python scripts/serve_info.py PORT --phones   what `make run` prints: its 127.0.0.1 reaches no phone,
                                                 `make serve` does, at this address

The addresses are read from the machine's network interfaces (`ip`, else `hostname -I`); nothing
is sent anywhere.
"""

import ipaddress
import shutil
import socket
import subprocess
import sys


def local_addresses() -> list[str]:
    """The machine's IPv4 addresses on its networks (not loopback), private ones first."""
    found: list[str] = []
    if shutil.which("ip"):
        done = subprocess.run(["ip", "-4", "-o", "addr", "show", "scope", "global"], capture_output=True, text=True)
        for line in done.stdout.splitlines():
            parts = line.split()
            if "inet" in parts:
                found.append(parts[parts.index("inet") + 1].split("/")[0])
    if not found and shutil.which("hostname"):
        done = subprocess.run(["hostname", "-I"], capture_output=True, text=True)
        found = [word for word in done.stdout.split() if "." in word]
    addresses = []
    for text in found:
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            continue
        if not address.is_loopback and text not in addresses:
            addresses.append(text)
    return sorted(addresses, key=lambda a: not ipaddress.ip_address(a).is_private)


def phones_text(port: int, addresses: list[str]) -> str:
    """What `make run` says before Django's development server starts on 127.0.0.1: no phone reaches
    it (nor the QR codes and links it prints, which name 127.0.0.1), and how to serve the hall."""
    suffix = "" if port == 80 else f":{port}"
    lines = ["", f"  Dieser Server (make run) ist nur auf diesem Rechner erreichbar: http://127.0.0.1{suffix}/",
             "  Handys erreichen 127.0.0.1 nicht, auch nicht über die QR-Codes und Links, die er zeigt.",
             "  Für Handys: make serve (im Netz der Halle, mit der Adresse als QR-Code)."]
    if addresses:
        lines.append(f"  Mit make serve erreichen Handys die App unter http://{addresses[0]}{suffix}/")
    return "\n".join([*lines, ""])


def main() -> None:
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 8000
    addresses = local_addresses()
    suffix = "" if port == 80 else f":{port}"
    urls = [f"http://{a}{suffix}/" for a in addresses]
    if "--hosts" in sys.argv:
        print(",".join(["localhost", "127.0.0.1", "[::1]", socket.gethostname(), f"{socket.gethostname()}.local",
                        *addresses]))
        return
    if "--phones" in sys.argv:
        print(phones_text(port, addresses))
        return
    if "--url" in sys.argv:
        print(urls[0].rstrip("/") if urls else f"http://127.0.0.1{suffix}")
        return
    print()
    if not urls:
        print(f"  Kein Netzwerk gefunden: nur auf diesem Rechner erreichbar, http://127.0.0.1{suffix}/")
        return
    print("  Doko-Turnier im Netz der Halle – diese Adresse in den Browser des Handys tippen:")
    for url in urls:
        print(f"      {url}")
    print(f"  (auf diesem Rechner: http://127.0.0.1{suffix}/)")
    try:
        import segno

        print()
        segno.make(urls[0], error="m").terminal(compact=True, border=2)
    except Exception as error:  # a terminal that cannot draw it: the address above is enough
        print(f"  (QR-Code nicht darstellbar: {error})")
    print()


if __name__ == "__main__":
    main()
