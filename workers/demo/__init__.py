"""The one-command demo: the platform's processes on one machine and a league of house bots.

``launcher.py`` runs it (services, children, progress), ``processes.py`` owns the child
processes, ``league.py`` sets up seasons and submissions through the Arena.
"""
