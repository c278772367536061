from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        # Matches played for sets ask the event, at each action, who organizes it and whether
        # an override can be applied to the set (matches never imports tournaments).
        from matches.owners import match_owner_register
        from tournaments.services.set_matches import SetMatchOwner

        match_owner_register(SetMatchOwner())
