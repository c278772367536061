# Team matches: a side row counts for the players, for its character or both; Triple Threat
# bouts and Tag Team / Dramatic Battle characters get their own rows. Stored team records are
# brought in line by ``manage.py stats_rebuild --reextract`` (their fingerprints changed).

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('stats', '0002_training_survival_modes'),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='gameside',
            name='gameside_one_per_seat',
        ),
        migrations.AddField(
            model_name='gameside',
            name='bout',
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.AddField(
            model_name='gameside',
            name='for_characters',
            field=models.BooleanField(default=True),
        ),
        migrations.AddField(
            model_name='gameside',
            name='for_players',
            field=models.BooleanField(default=True),
        ),
        migrations.AddField(
            model_name='gameside',
            name='member',
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.AddConstraint(
            model_name='gameside',
            constraint=models.UniqueConstraint(fields=('game', 'seat', 'bout', 'member'), name='gameside_one_per_seat_bout_member'),
        ),
    ]
