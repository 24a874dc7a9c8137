"""The chief arbiter's push: the event's settings to every clock of the hall, once.

    python -m hall.push --account arbiter.json --control 5400/40+1800+30 \
        [--control-right ...] [--quickplay off] [--edition appendix-g] [--id round-3]

Publishes one retained message on ``PREFIX/settings`` with the arbiter's
account (the only one the broker's ACL lets write there). Clocks in the
setup state put it in force and show ``HALL``; a clock in a game refuses it
and says so (``push: refused``) in its next message (docs/hall.md). The
account file holds ``broker``, ``port``, ``user``, ``password``, ``prefix`` and ``ca``
(the hall's CA: the connection is TLS and the broker's certificate is checked against
it); the password is never printed.
"""

import argparse
import json
import sys
import time

import paho.mqtt.client as paho

from firmware import claims, hall_message, timecontrol


def settings_message(
    control, control_right=None, quickplay="off", edition="appendix-g", ident=None
):
    """The push's payload, checked as a clock will check it."""
    timecontrol.parse(control)
    if control_right is not None:
        timecontrol.parse(control_right)
    claims.check_setting(quickplay, edition)
    data = {"id": ident or time.strftime("push-%Y%m%d-%H%M%S"), "control": control}
    if control_right is not None:
        data["control_right"] = control_right
    data["quickplay"] = quickplay
    data["edition"] = edition
    return json.dumps(data).encode()


def publish(account, payload, timeout_s=5.0):
    """Publish ``payload`` retained on the settings topic; raises if the broker refuses."""
    from hall import tls

    tls.check_plain(account["broker"], account.get("ca"))  # never the password in clear
    done = {}
    client = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id="hall-arbiter")
    client.username_pw_set(account["user"], account["password"])
    if account.get("ca"):  # the hall's CA (hall.accounts): the broker's certificate checked
        client.tls_set_context(tls.client_context(account["ca"]))
    client.on_connect = lambda c, u, f, code, p: done.setdefault("code", code)
    client.connect(account["broker"], account.get("port", 1883), 30)
    client.loop_start()
    try:
        deadline = time.monotonic() + timeout_s
        while "code" not in done and time.monotonic() < deadline:
            time.sleep(0.02)
        if "code" not in done or done["code"].is_failure:
            raise RuntimeError("the broker refused the arbiter's account: %s" % done.get("code"))
        topic = hall_message.settings_topic(account.get("prefix", "hall"))
        info = client.publish(topic, payload, qos=1, retain=True)
        info.wait_for_publish(timeout_s)
    finally:
        client.loop_stop()
        client.disconnect()


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m hall.push", description=__doc__.split("\n")[0])
    parser.add_argument("--account", required=True, help="the arbiter's account file (JSON)")
    parser.add_argument("--control", required=True)
    parser.add_argument("--control-right")
    parser.add_argument("--quickplay", default="off")
    parser.add_argument("--edition", default="appendix-g")
    parser.add_argument("--id", help="the push's name (default: the date and time)")
    args = parser.parse_args(argv)
    try:
        payload = settings_message(
            args.control, args.control_right, args.quickplay, args.edition, args.id
        )
    except ValueError as error:
        parser.error(str(error))
    try:
        with open(args.account) as handle:
            account = json.load(handle)
        if not all(isinstance(account.get(key), str) for key in ("broker", "user", "password")):
            raise ValueError("it needs broker, user and password")
    except OSError as error:
        raise SystemExit(
            "hall.push: cannot read the account %s: %s" % (args.account, error.strerror)
        )
    except ValueError as error:
        raise SystemExit("hall.push: the account %s is not usable: %s" % (args.account, error))
    try:
        publish(account, payload)
    except (OSError, RuntimeError, ValueError) as error:
        raise SystemExit(
            "hall.push: nothing pushed: the broker at %s:%s: %s"
            % (account["broker"], account.get("port", 1883), error)
        )
    print("pushed: %s" % payload.decode())
    return 0


if __name__ == "__main__":
    sys.exit(main())
