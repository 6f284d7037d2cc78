"""What every command runs on: child processes that die with it (``processes``), stops that are
never lost (``interrupts``), the cyclic collector paused (``collector``), the address ``serve``
binds (``addresses``) and pickles read fast (``pickled``)."""
