"""Requests for research access, sent from the public form on /research/access/."""

import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('research', '0001_researchers_group'),
    ]

    operations = [
        migrations.CreateModel(
            name='AccessRequest',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=200)),
                ('email', models.EmailField(max_length=254)),
                ('institution', models.CharField(max_length=200)),
                ('purpose', models.TextField(max_length=4000)),
                ('status', models.CharField(choices=[('new', 'New'), ('granted', 'Access granted'), ('declined', 'Declined')], default='new', max_length=16)),
                ('admin_note', models.TextField(blank=True, default='')),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
            ],
            options={
                'verbose_name': 'access request',
                'ordering': ['-created_at'],
            },
        ),
    ]
