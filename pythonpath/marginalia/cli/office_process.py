"""A private LibreOffice process driven over the UNO bridge (the client side).

Used by ``build.py install``, the test harness and the headless runner: start
soffice with its own throwaway profile, connect, install the .oxt through the
ExtensionManager API (works as root, where ``unopkg`` refuses), and always end
the process, by its own PID, however the caller leaves.
"""

import json
import logging
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import zipfile
from typing import Any, Mapping, Optional, Sequence, Tuple

import uno
from com.sun.star.beans import NamedValue, PropertyValue

from marginalia.cli import deployment
from marginalia.cli.profile_lock import free_profile
from marginalia.cli.unopkg import office_env   # here too: callers import it from here

SOFFICE_CANDIDATES = (
    "/usr/lib/libreoffice/program/soffice",
    "/opt/libreoffice/program/soffice",
    "/Applications/LibreOffice.app/Contents/MacOS/soffice",
    r"C:\Program Files\LibreOffice\program\soffice.exe",
)


class OfficeError(Exception):
    """The office could not be found, started, or asked to do something."""


class JobFailed(OfficeError):
    """A command of the extension's org.marginalia.Job service failed inside the office."""

    def __init__(self, command: str, error: str, detail: str) -> None:
        OfficeError.__init__(self, "Marginalia failed inside LibreOffice: %s" % error)
        self.command = command
        self.error = error
        self.detail = detail  # the traceback inside the office, for logs and tests


def find_soffice() -> str:
    """Path of the soffice binary, or raise OfficeError with an install hint."""
    found = os.environ.get("MARGINALIA_SOFFICE") or shutil.which("soffice")
    if found:
        return found
    for candidate in SOFFICE_CANDIDATES:
        if os.path.exists(candidate):
            return candidate
    raise OfficeError("LibreOffice was not found: install it (on Debian: apt-get install "
                      "libreoffice-writer python3-uno) or set MARGINALIA_SOFFICE.")


def props(**values: Any) -> Tuple[Any, ...]:
    """A tuple of PropertyValue from keyword arguments."""
    out = []
    for name, value in values.items():
        pv = PropertyValue()
        pv.Name = name
        pv.Value = value
        out.append(pv)
    return tuple(out)


# What addExtension says when the deployment's registry, not the .oxt, failed.
_REGISTRY_HICCUP = "InvalidRegistryException"


def _free_port() -> int:
    sock = socket.socket()
    try:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
    finally:
        sock.close()


UNUSABLE = ("LibreOffice could not install %s: it is not a usable extension file (build it "
            "again with `python3 build.py`). %s")


def install_extension(ctx: Any, oxt_path: str) -> None:
    """Add (or replace) the .oxt in the running office's user profile.

    Refused before adding when the same extension is installed for every user
    (or bundled): the copy would fail in LibreOffice and stay half-registered in
    the profile. The approving handler also "approves" error reports (unsatisfied
    dependencies...), after which addExtension returns quietly without
    installing anything, so success is checked by looking the identifier up.
    """
    name = os.path.basename(oxt_path)
    try:
        wanted, _version = deployment.identity(oxt_path)
    except (OSError, KeyError, zipfile.BadZipFile) as exc:
        raise OfficeError(UNUSABLE % (name, "Reading it said: %s" % deployment.said(exc)))
    if not wanted:
        raise OfficeError(UNUSABLE % (name, "Its description.xml names no identifier."))
    above = dict((r, v) for r, v in deployment.deployed(ctx, wanted).items() if r != "user")
    if above:
        repository, version = deployment.first(above)
        raise OfficeError(
            "%s %s is already installed %s, and LibreOffice cannot add a second copy to a "
            "profile: use that one, or remove it first (`python3 build.py uninstall "
            "--shared`, as root)." % (wanted, version, deployment.WHERE[repository]))
    em = deployment.manager(ctx)
    url = uno.systemPathToFileUrl(os.path.abspath(oxt_path))
    try:
        em.addExtension(url, (), "user", em.createAbortChannel(), deployment.CommandEnv())
    except Exception as exc:
        # Only LibreOffice's zip reader blames the file; anything else (a dead office,
        # a registry that refused, a component that would not start) is said as it is.
        if deployment.bad_file(exc):
            raise OfficeError(UNUSABLE % (name, "LibreOffice said: %s" % deployment.said(exc)))
        raise OfficeError("LibreOffice could not install %s. LibreOffice said: %s"
                          % (name, deployment.said(exc)))
    if "user" not in deployment.deployed(ctx, wanted):
        raise OfficeError("LibreOffice did not install %s (check its description.xml "
                          "dependencies)." % name)


class Office:
    """One soffice process with its own profile; a context manager that always ends it."""

    def __init__(self, profile_dir: Optional[str] = None, headless: bool = True,
                 env: Optional[Mapping[str, str]] = None, extra_args: Sequence[str] = (),
                 output_path: Optional[str] = None) -> None:
        self._own_profile = profile_dir is None
        # Where soffice's own output goes (appended; a crash prints its stack there), or nowhere.
        self.output_path = output_path
        self.profile_dir = profile_dir or tempfile.mkdtemp(prefix="marginalia-profile-")
        self.headless = headless
        self.env = env
        self.extra_args = tuple(extra_args)
        self.process = None
        self.ctx = None
        self.smgr = None
        self.desktop = None
        self.port = None

    def start(self, timeout: float = 90.0) -> "Office":
        soffice = find_soffice()
        self.port = _free_port()
        args = [soffice, "-env:UserInstallation=" + uno.systemPathToFileUrl(self.profile_dir),
                "--norestore", "--nologo", "--nodefault", "--nofirststartwizard",
                "--accept=socket,host=127.0.0.1,port=%d;urp;StarOffice.ComponentContext"
                % self.port]
        if self.headless:
            args.insert(1, "--headless")
        args.extend(self.extra_args)
        env = office_env(os.environ if self.env is None else self.env)
        # A new session so the whole process tree (oosplash + soffice.bin) ends together.
        output = open(self.output_path, "ab") if self.output_path else subprocess.DEVNULL
        try:
            self.process = subprocess.Popen(args, env=env, stdin=subprocess.DEVNULL,
                                            stdout=output, stderr=output,
                                            start_new_session=True)
        finally:
            if output is not subprocess.DEVNULL:
                output.close()
        local = uno.getComponentContext()
        resolver = local.ServiceManager.createInstanceWithContext(
            "com.sun.star.bridge.UnoUrlResolver", local)
        url = "uno:socket,host=127.0.0.1,port=%d;urp;StarOffice.ComponentContext" % self.port
        deadline = time.time() + timeout
        while True:
            if self.process.poll() is not None:
                raise OfficeError("LibreOffice exited during start-up (code %s)."
                                  % self.process.returncode)
            try:
                self.ctx = resolver.resolve(url)
                break
            except Exception:
                if time.time() > deadline:
                    self.kill()
                    raise OfficeError("LibreOffice did not start within %d seconds." % timeout)
                time.sleep(0.2)
        self.smgr = self.ctx.ServiceManager
        self.desktop = self.smgr.createInstanceWithContext("com.sun.star.frame.Desktop", self.ctx)
        return self

    def install(self, oxt_path: str) -> None:
        """Install the .oxt; once more in a newly started office if this one failed oddly.

        Seen in two of six whole-suite runs, and by ``build.py install`` replacing
        an older version: the office died during addExtension ("Binary URP bridge
        disposed"). Once in ten, on a loaded machine, the deployment's registry
        refused a fresh profile's first registration (InvalidRegistryException).
        """
        try:
            install_extension(self.ctx, oxt_path)
        except Exception as exc:    # a dead bridge raises DisposedException anywhere
            if self.answers() and _REGISTRY_HICCUP not in str(exc):
                raise               # a real refusal: the file
            logging.getLogger("marginalia.cli").debug("installing failed (%s); again", exc)
            self.kill()
            self.start()
            try:
                install_extension(self.ctx, oxt_path)
            except Exception as again:
                if isinstance(again, OfficeError) or self.answers():
                    raise
                raise OfficeError("LibreOffice stopped twice while installing %s; close "
                                  "LibreOffice and run the install again."
                                  % os.path.basename(oxt_path))

    def install_and_restart(self, oxt_path: str) -> None:
        """Install the .oxt, then start the office again on the same profile.

        Why: addExtension registers a Python component in a helper ``uno.bin``
        process the deployment starts (and keeps), then inserts the factories
        it got there into the office's service manager. Until a restart the
        extension's Python code therefore runs inside uno.bin: every call it
        makes into a document is a round trip over a pipe (~90 us instead of
        ~6 us; the tools ran 15-20x slower than for a user who restarted), and
        the "main-thread" callbacks run on one of uno.bin's bridge threads.
        """
        self.install(oxt_path)
        self.restart()

    def use_installed(self, oxt_path: str) -> Optional[str]:
        """The Marginalia this office already has (installed for every user, bundled, or
        in its profile): None when it has none (install ``oxt_path`` then), else a note
        for the user when the one used is not the .oxt's version ("" when it is).

        Why the runners take the installed one: after ``build.py install --shared`` a
        copy added to their profile fails (see deployment), for root and every user.
        """
        layers = deployment.deployed(self.ctx, deployment.MARGINALIA)
        if not layers:
            return None
        repository, version = deployment.first(layers)
        if self.create("org.marginalia.Job") is None:
            raise OfficeError("Marginalia %s is installed %s, but LibreOffice does not run it "
                              "(it may be disabled: see Tools > Extension Manager, or "
                              "`unopkg list --shared`)." % (version, deployment.WHERE[repository]))
        try:
            built = deployment.identity(oxt_path)[1]
        except (OSError, KeyError, zipfile.BadZipFile):
            built = None
        if built is None or built == version:
            return ""
        return ("Using Marginalia %s, installed %s, not %s (%s)."
                % (version, deployment.WHERE[repository], oxt_path, built))

    def answers(self, timeout: float = 10.0) -> bool:
        """Whether the office is running and answers a call (asked on a thread: a hung
        office must not hang the caller)."""
        desktop = self.desktop
        if self.process is None or self.process.poll() is not None or desktop is None:
            return False
        answered = []

        def ping() -> None:
            try:
                desktop.getCurrentFrame()
                answered.append(True)
            except Exception:
                pass            # a dead bridge raises DisposedException
        thread = threading.Thread(target=ping, name="marginalia-office-ping", daemon=True)
        thread.start()
        thread.join(timeout)
        return bool(answered)

    def restart(self, timeout: float = 90.0) -> None:
        """Quit the office (keeping its profile) and start it again."""
        own, self._own_profile = self._own_profile, False
        try:
            self.terminate()
        finally:
            self._own_profile = own
        self.start(timeout)

    def create(self, service: str) -> Any:
        return self.smgr.createInstanceWithContext(service, self.ctx)

    # The service job() calls: the product's; the tests' harness names its own test-only
    # one (tests/extension), which hands the product's commands on to this.
    job_service = "org.marginalia.Job"

    def job(self, command: str, document: Any = None, **payload: Any) -> Any:
        """Run a command of the installed extension in process; returns its decoded result."""
        job = self.create(self.job_service)
        if job is None:
            raise OfficeError("The Marginalia extension is not installed in this LibreOffice.")
        args = [NamedValue("Command", command), NamedValue("Payload", json.dumps(payload))]
        if document is not None:
            args.append(NamedValue("Document", document))
        data = json.loads(job.execute(tuple(args)))
        if not data.get("ok"):
            raise JobFailed(command, data.get("error"), data.get("detail", ""))
        return data["result"]

    def load(self, path_or_url: str, hidden: bool = True, **extra: Any) -> Any:
        url = path_or_url if "://" in path_or_url or path_or_url.startswith("private:") \
            else uno.systemPathToFileUrl(os.path.abspath(path_or_url))
        args = dict(extra)
        if hidden:
            args["Hidden"] = True
        doc = self.desktop.loadComponentFromURL(url, "_blank", 0, props(**args))
        if doc is None:
            raise OfficeError("LibreOffice could not open %s." % path_or_url)
        return doc

    def new_writer(self, hidden: bool = True) -> Any:
        return self.load("private:factory/swriter", hidden=hidden)

    def close(self, doc: Any, timeout: float = 10.0) -> None:
        """Close a document without saving, so its lock file goes; gives up after ``timeout``.

        On a thread, like quitting: a busy or hung office must not block the
        caller, which ends the office next anyway.
        """
        def close() -> None:
            try:
                doc.close(True)
            except Exception:
                try:
                    doc.dispose()  # a close listener vetoed, or the bridge is gone
                except Exception:
                    pass
        thread = threading.Thread(target=close, name="marginalia-document-close", daemon=True)
        thread.start()
        thread.join(timeout)

    def terminate(self, timeout: float = 20.0) -> None:
        """Ask the office to quit; kill its process group if it will not.

        Also killed when it was never connected, and when the wait is
        interrupted (a second Ctrl+C): the process must not outlive us.
        """
        if self.process is None:
            return
        try:
            if self.process.poll() is None:
                if self.desktop is None:
                    self.kill()
                    return
                self._ask_to_quit(min(timeout, 10.0))
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
        except BaseException:
            self.kill()
            raise
        self._cleanup()

    def _ask_to_quit(self, timeout: float) -> None:
        # On a thread: a hung office would block Desktop.terminate() forever.
        desktop = self.desktop

        def ask():
            try:
                desktop.terminate()
            except Exception:
                pass  # the bridge dies with the process: expected
        thread = threading.Thread(target=ask, name="marginalia-office-quit", daemon=True)
        thread.start()
        thread.join(timeout)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except (OSError, AttributeError):  # AttributeError: Windows has no killpg
                self.process.kill()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                pass
        # A killed or crashed office leaves its profile's .lock, and a headless one
        # started there next would neither replace nor remove it.
        if self.process is not None and self.process.poll() is not None:
            free_profile(self.profile_dir)
        self._cleanup()

    def _cleanup(self) -> None:
        self.desktop = self.smgr = self.ctx = None
        if self._own_profile and self.process is not None and self.process.poll() is not None:
            shutil.rmtree(self.profile_dir, ignore_errors=True)

    def __enter__(self) -> "Office":
        return self.start()

    def __exit__(self, *exc: Any) -> bool:
        self.terminate()
        return False
