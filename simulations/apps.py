from django.apps import AppConfig
from django.db.models.signals import post_save


class SimulationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "simulations"
    verbose_name = "Simulations"

    def ready(self) -> None:
        from celery.signals import task_success

        from simulations.signals import ratings_rebuilt, stage_saved
        from tournaments.models import Stage

        task_success.connect(ratings_rebuilt, dispatch_uid="simulations-odds-after-ratings")
        post_save.connect(stage_saved, sender=Stage, dispatch_uid="simulations-stage-odds")
