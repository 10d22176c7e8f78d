#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Run rdma-core's pyverbs tests one forked child per test module.

The stock run_tests.py runs every module in one process and segfaults
mid-run in pyverbs object teardown (GC-timing dependent), losing the rest of
the run.  Here the parent imports the test package once (the slow part),
then forks a child per module; a crash or a hang costs only that module.
Each child runs under an alarm (a broken completion-event path blocks
forever in ibv_get_cq_event) and the parent also kills it past the deadline.

Run with the rdma-core tests/ directory as the current directory.  Writes
  OUT/results.tsv          (appended) one line per module:
                           pyverbs/<module> TAB pass|skip|fail TAB counts
                           and one fail line per failing or erroring test:
                           pyverbs/<module>.<Class>.<test> TAB fail TAB why
  OUT/pyverbs-tests.tsv    every test: id TAB status TAB message
  OUT/logs/pyverbs/<module>.log   the module's unittest -v output
Exit status: 0 when no test failed or errored and no module crashed, else 1.
"""

import argparse
import fnmatch
import json
import os
import signal
import sys
import time
import traceback
import unittest
from importlib.machinery import SourceFileLoader


def parse_args():
    ap = argparse.ArgumentParser()
    ap.add_argument('--dev', required=True)
    ap.add_argument('--gid', type=int)
    ap.add_argument('--port', type=int, default=1)
    ap.add_argument('--timeout', type=int, default=300,
                    help='seconds per module')
    ap.add_argument('--only', default='',
                    help='comma-separated module patterns to run')
    ap.add_argument('--exclude', default='',
                    help='comma-separated module patterns to skip')
    ap.add_argument('--out', default='.')
    return ap.parse_args()


def one_line(text, limit=240):
    text = ' '.join(str(text).split())
    return text[:limit]


def short_id(test_id):
    return test_id[len('tests.'):] if test_id.startswith('tests.') else test_id


class Recorder(unittest.TextTestResult):
    """TextTestResult that also keeps (id, status, message) per test."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.records = []

    def _err(self, err):
        etype, value, _ = err
        return one_line('%s: %s' % (etype.__name__, value))

    def addSuccess(self, test):
        super().addSuccess(test)
        self.records.append((test.id(), 'pass', ''))

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.records.append((test.id(), 'fail', self._err(err)))

    def addError(self, test, err):
        super().addError(test, err)
        # setUpClass/module fixtures fail as _ErrorHolder without id().
        tid = test.id() if hasattr(test, 'id') else str(test)
        self.records.append((tid, 'error', self._err(err)))

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self.records.append((test.id(), 'skip', one_line(reason)))

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self.records.append((test.id(), 'xfail', self._err(err)))

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self.records.append((test.id(), 'fail', 'unexpected success'))

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            failed = issubclass(err[0], test.failureException)
            self.records.append((subtest.id(), 'fail' if failed else 'error',
                                 self._err(err)))


def run_child(mod, timeout, log_path, json_path):
    """Child: run one module, dump its records as JSON, never return."""
    code = 0
    try:
        signal.alarm(timeout)
        fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        suite = unittest.defaultTestLoader.loadTestsFromModule(mod)
        runner = unittest.TextTestRunner(stream=sys.stderr, verbosity=2,
                                         resultclass=Recorder)
        res = runner.run(suite)
        data = {'run': res.testsRun, 'records': res.records}
        tmp = json_path + '.tmp'
        with open(tmp, 'w') as f:
            json.dump(data, f)
        os.rename(tmp, json_path)
    except BaseException:
        traceback.print_exc()
        code = 3
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def wait_child(pid, deadline):
    """Wait for the child until deadline; kill it past that."""
    while True:
        wpid, status = os.waitpid(pid, os.WNOHANG)
        if wpid == pid:
            return status, False
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            _, status = os.waitpid(pid, 0)
            return status, True
        time.sleep(0.2)


def describe_exit(status, killed, timeout):
    if killed:
        return 'timeout after %d s (killed)' % timeout
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        if sig == signal.SIGALRM:
            return 'timeout after %d s (alarm)' % timeout
        return 'crashed: %s' % signal.Signals(sig).name
    return 'child exited %d without results' % os.WEXITSTATUS(status)


def selected(name, only, exclude):
    if only and not any(fnmatch.fnmatch(name, p) for p in only):
        return False
    return not any(fnmatch.fnmatch(name, p) for p in exclude)


def main():
    args = parse_args()
    only = [p for p in args.only.split(',') if p]
    exclude = [p for p in args.exclude.split(',') if p]
    tests_dir = os.getcwd()
    os.makedirs(os.path.join(args.out, 'logs', 'pyverbs'), exist_ok=True)

    # Hand rdma-core's own option parser what run_tests.py would.
    sys.path.insert(0, tests_dir)
    sys.argv = [sys.argv[0], '--dev', args.dev, '--port', str(args.port)]
    if args.gid is not None:
        sys.argv += ['--gid', str(args.gid)]
    from args_parser import parser
    parser.parse_args()
    t0 = time.monotonic()
    tests = SourceFileLoader('tests', os.path.join(tests_dir, '__init__.py')).load_module()
    print('pyverbs: %d modules imported in %.1f s' %
          (len(tests.__test_modules__), time.monotonic() - t0), flush=True)

    res_f = open(os.path.join(args.out, 'results.tsv'), 'a')
    all_f = open(os.path.join(args.out, 'pyverbs-tests.tsv'), 'w')
    tot = dict(run=0, passed=0, fail=0, err=0, skip=0, crashed=0)
    for mod in tests.__test_modules__:
        name = mod.__name__.split('.')[-1]
        if not selected(name, only, exclude):
            continue
        log_path = os.path.join(args.out, 'logs', 'pyverbs', name + '.log')
        json_path = '/tmp/pyverbs-%s.json' % name
        t1 = time.monotonic()
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:
            run_child(mod, args.timeout, log_path, json_path)
        status, killed = wait_child(pid, t1 + args.timeout + 30)
        secs = time.monotonic() - t1
        data = None
        if not killed and os.path.exists(json_path):
            with open(json_path) as f:
                data = json.load(f)
            os.unlink(json_path)
        mid = 'pyverbs/' + name
        if data is None:
            why = describe_exit(status, killed, args.timeout)
            tot['crashed'] += 1
            res_f.write('%s\tfail\t%s after %.0f s; see logs/pyverbs/%s.log\n'
                        % (mid, why, secs, name))
            res_f.flush()
            print('pyverbs: %-28s %s' % (name, why), flush=True)
            continue
        cnt = dict(passed=0, fail=0, err=0, skip=0, xfail=0)
        key = {'pass': 'passed', 'fail': 'fail', 'error': 'err',
               'skip': 'skip', 'xfail': 'xfail'}
        bad = []
        for tid, st, msg in data['records']:
            cnt[key[st]] += 1
            all_f.write('%s\t%s\t%s\n' % (short_id(tid), st, msg))
            if st in ('fail', 'error'):
                bad.append((short_id(tid), st, msg))
        run = data['run']
        detail = 'run=%d pass=%d fail=%d err=%d skip=%d %.0fs' % (
            run, cnt['passed'], cnt['fail'], cnt['err'], cnt['skip'], secs)
        status_word = 'fail' if bad else ('pass' if cnt['passed'] else 'skip')
        res_f.write('%s\t%s\t%s\n' % (mid, status_word, detail))
        for tid, st, msg in bad:
            res_f.write('pyverbs/%s\tfail\t%s%s\n'
                        % (tid, 'error: ' if st == 'error' else '', msg))
        res_f.flush()
        all_f.flush()
        print('pyverbs: %-28s %s' % (name, detail), flush=True)
        tot['run'] += run
        tot['passed'] += cnt['passed']
        tot['fail'] += cnt['fail']
        tot['err'] += cnt['err']
        tot['skip'] += cnt['skip']
    summary = ('run=%(run)d pass=%(passed)d fail=%(fail)d err=%(err)d '
               'skip=%(skip)d crashed_modules=%(crashed)d' % tot)
    with open(os.path.join(args.out, 'pyverbs-summary.txt'), 'w') as f:
        f.write(summary + ' time=%.0fs\n' % (time.monotonic() - t0))
    print('pyverbs: total ' + summary, flush=True)
    return 1 if tot['fail'] or tot['err'] or tot['crashed'] else 0


if __name__ == '__main__':
    sys.exit(main())
