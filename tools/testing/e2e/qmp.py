# SPDX-License-Identifier: GPL-2.0
"""Hot-unplug a device of the test VM through QEMU's QMP monitor (host side).

    qmp.py SOCKET device_del ID [SECONDS]

Connects to the QMP unix socket vm-run.sh -Q opened, sends device_del for
ID (vfu0, vfu1, ...: the vfio-user devices in -s order) and waits up to
SECONDS (default 60) for QEMU's DEVICE_DELETED event: on a PCIe root port
QEMU presses the slot's attention button, the guest's pciehp removes the
function (its driver's remove runs) and powers the slot off, and only
then is the device gone.  Prints one line, "ok DETAIL" or "error DETAIL";
exit status 0 on ok.
"""

import json
import socket
import sys
import time


def main():
    if len(sys.argv) not in (4, 5) or sys.argv[2] != 'device_del':
        sys.exit('usage: qmp.py SOCKET device_del ID [SECONDS]')
    path, dev = sys.argv[1], sys.argv[3]
    tmo = float(sys.argv[4]) if len(sys.argv) == 5 else 60.0
    t0 = time.monotonic()
    try:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(tmo)
        sock.connect(path)
        f = sock.makefile('rw')
        json.loads(f.readline())              # the greeting

        def call(cmd, **args):
            f.write(json.dumps({'execute': cmd, 'arguments': args}) + '\n')
            f.flush()
            while True:
                msg = json.loads(f.readline())
                if 'return' in msg or 'error' in msg:
                    return msg

        call('qmp_capabilities')
        msg = call('device_del', id=dev)
        if 'error' in msg:
            print('error device_del %s: %s' % (dev, msg['error'].get('desc')))
            return 1
        while True:
            msg = json.loads(f.readline())
            if msg.get('event') == 'DEVICE_DELETED' and \
                    msg.get('data', {}).get('device') == dev:
                break
    except (OSError, ValueError) as ex:
        print('error %s: %s after %.1f s' % (dev, ex, time.monotonic() - t0))
        return 1
    print('ok %s deleted %.1f s after device_del' % (dev, time.monotonic() - t0))
    return 0


if __name__ == '__main__':
    sys.exit(main())
