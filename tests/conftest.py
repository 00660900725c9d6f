"""Root of the test suite. Being in the ``tests`` package, this file makes pytest put the checkout's
root on ``sys.path`` before any test module loads, so every test folder can import
``tests.shared_data`` (the one place that knows where the shared test data lies)."""
