# Issue 22: the per-decision clock of an event's match rooms.

from django.db import migrations, models

import tournaments.models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0006_self_reports'),
    ]

    operations = [
        migrations.AddField(
            model_name='event',
            name='room_decision_seconds',
            field=models.PositiveIntegerField(blank=True, help_text='Seconds per decision in the match rooms of this event. Empty: no clock.', null=True, validators=[tournaments.models._validate_room_decision_seconds]),
        ),
    ]
