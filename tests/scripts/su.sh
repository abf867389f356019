# Dropping privileges: a user among root's directories (su makes the drop for good).
mkdir /p /t
chmod 700 /p
chmod 1777 /t
touch /t/rootfile
su 1000:100
id
ls /p
touch /p/x
touch /t/mine
rm /t/rootfile
mv /t/mine /t/mine2
chmod 600 /t/rootfile
chroot /t
su root
